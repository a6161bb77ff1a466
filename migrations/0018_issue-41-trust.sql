CREATE TABLE `email_confirmations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`purpose` text NOT NULL,
	`token_hash` text NOT NULL,
	`invitation_id` text,
	`request_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invitation_id`) REFERENCES `organisation_invitations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_confirmations_token_unique` ON `email_confirmations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `email_confirmations_user_idx` ON `email_confirmations` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `email_confirmations_invitation_idx` ON `email_confirmations` (`invitation_id`);--> statement-breakpoint
ALTER TABLE `organisations` ADD `pending_name` text;--> statement-breakpoint
ALTER TABLE `organisations` ADD `pending_name_at` integer;--> statement-breakpoint
CREATE INDEX `organisations_pending_name_idx` ON `organisations` (`pending_name_at`) WHERE pending_name is not null;--> statement-breakpoint
ALTER TABLE `users` ADD `email_confirmed_at` integer;--> statement-breakpoint
-- Organisation names are now compared by their UTS #39 confusable skeleton: every stored key is
-- re-computed by the cron (backfillOrganisationNameKeys), which finds the verified rows by this NULL.
UPDATE `organisations` SET `name_key` = NULL;
