CREATE INDEX `certificates_submission_idx` ON `certificates` (`submission_id`);--> statement-breakpoint
CREATE INDEX `certificates_employer_idx` ON `certificates` (`employer_id`);--> statement-breakpoint
CREATE INDEX `certificates_brief_idx` ON `certificates` (`brief_id`);--> statement-breakpoint
CREATE INDEX `certificates_revoked_by_idx` ON `certificates` (`revoked_by`);--> statement-breakpoint
CREATE INDEX `employer_ratings_brief_idx` ON `employer_ratings` (`brief_id`);