/** A public leaderboard as it is cached and served: ranked aliases, never names. */
export type LeaderboardEntry = {
  rank: number;
  alias: string;
  certificates: number;
  averageEmployerScore: number | null;
};

export type Leaderboard = { domain: string | null; generatedAt: string; entries: LeaderboardEntry[] };
