CREATE TABLE `guardian_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`child_id` text NOT NULL,
	`guardian_email` text NOT NULL,
	`guardian_id` text,
	`relationship` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`decided_at` integer,
	`ended_at` integer,
	FOREIGN KEY (`child_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`guardian_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `guardian_requests_child_idx` ON `guardian_requests` (`child_id`,`state`);--> statement-breakpoint
CREATE INDEX `guardian_requests_email_idx` ON `guardian_requests` (`guardian_email`,`state`);--> statement-breakpoint
CREATE INDEX `guardian_requests_guardian_idx` ON `guardian_requests` (`guardian_id`,`state`);--> statement-breakpoint
ALTER TABLE `breaches` ADD `affected_query` text;--> statement-breakpoint
ALTER TABLE `breaches` ADD `notification` text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE `consent_events` ADD `granted_by` text;--> statement-breakpoint
ALTER TABLE `users` ADD `date_of_birth` text;