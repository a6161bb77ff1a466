CREATE TABLE `fingerprints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hash` integer NOT NULL,
	`submission_id` text NOT NULL,
	`candidate_id` text NOT NULL,
	`position` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `fingerprints_hash_idx` ON `fingerprints` (`hash`);--> statement-breakpoint
CREATE INDEX `fingerprints_submission_idx` ON `fingerprints` (`submission_id`);--> statement-breakpoint
CREATE TABLE `fingerprint_frequencies` (
	`hash` integer PRIMARY KEY NOT NULL,
	`submissions` integer NOT NULL
);
