/** A public leaderboard as it is cached and served: ranked aliases, never names. */
export type LeaderboardEntry = {
  rank: number;
  alias: string;
  certificates: number;
  averageEmployerScore: number | null;
  /**
   * The holder's latest valid certificate (in the board's domain), only when the holder shows their
   * own name both here (no alias) and on their certificate pages; absent otherwise.
   */
  certificateNo?: string;
};

export type Leaderboard = { domain: string | null; generatedAt: string; entries: LeaderboardEntry[] };
