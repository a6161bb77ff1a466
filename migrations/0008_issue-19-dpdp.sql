CREATE TABLE `breaches` (
	`id` text PRIMARY KEY NOT NULL,
	`description` text NOT NULL,
	`occurred_at` integer,
	`found_at` integer NOT NULL,
	`categories` text NOT NULL,
	`measures` text NOT NULL,
	`affected_count` integer NOT NULL,
	`recorded_by` text,
	`board_intimation_due_at` integer NOT NULL,
	`board_intimated_at` integer,
	`board_report_due_at` integer NOT NULL,
	`board_reported_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `breaches_created_idx` ON `breaches` (`created_at`);--> statement-breakpoint
CREATE TABLE `dpo_records` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`state` text NOT NULL,
	`subject_pseudonym` text NOT NULL,
	`due_at` integer NOT NULL,
	`requested_at` integer NOT NULL,
	`completed_at` integer,
	`pseudonymised_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dpo_records_requested_idx` ON `dpo_records` (`requested_at`);--> statement-breakpoint
CREATE TABLE `integrity_disclosures` (
	`id` text PRIMARY KEY NOT NULL,
	`submission_id` text NOT NULL,
	`api_key_id` text,
	`partner` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `integrity_disclosures_submission_idx` ON `integrity_disclosures` (`submission_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `user_notices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`ref` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`emailed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_notices_user_kind_ref_unique` ON `user_notices` (`user_id`,`kind`,`ref`);--> statement-breakpoint
ALTER TABLE `audit_log` ADD `actor_pseudonym` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `pseudonymised_at` integer;--> statement-breakpoint
CREATE INDEX `audit_log_pseudonymised_idx` ON `audit_log` (`pseudonymised_at`,`created_at`);--> statement-breakpoint
ALTER TABLE `consent_events` ADD `language` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `last_login_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `retention_notice_at` integer;