CREATE TABLE `credential_statuses` (
	`status_index` integer PRIMARY KEY NOT NULL,
	`state` text DEFAULT 'reserved' NOT NULL,
	`certificate_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`certificate_id`) REFERENCES `certificates`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credential_statuses_certificate_unique` ON `credential_statuses` (`certificate_id`);--> statement-breakpoint
ALTER TABLE `briefs` ADD `valid_for_months` integer;--> statement-breakpoint
ALTER TABLE `certificates` ADD `valid_until` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `credential_subject_id` text;