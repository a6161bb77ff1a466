import { createRouter } from '../../http/create-app';
import * as handlers from './leaderboard.handlers';
import * as routes from './leaderboard.routes';

export const leaderboardRouter = createRouter().openapi(routes.getLeaderboard, handlers.get);
