import { createRouter } from '../../http/create-app';
import * as handlers from './ob.handlers';
import * as routes from './ob.routes';

/** The Open Badges documents a credential names: its key, issuer, achievement and status list. */
export const obRouter = createRouter()
  .openapi(routes.getKey, handlers.key)
  .openapi(routes.getIssuer, handlers.issuer)
  .openapi(routes.getAchievement, handlers.achievement)
  .openapi(routes.getCriteria, handlers.criteria)
  .openapi(routes.getAchievementImage, handlers.achievementImage)
  .openapi(routes.getStatusList, handlers.statusListDocument);
