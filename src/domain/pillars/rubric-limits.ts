/** How many criteria a rubric has: the extractor aims inside these bounds and the rules check them. */
export const MIN_CRITERIA = 3;
export const MAX_CRITERIA = 8;

/** No single criterion may outweigh this share when there are three or more. */
export const MAX_CRITERION_WEIGHT = 40;
