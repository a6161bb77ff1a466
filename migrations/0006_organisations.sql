CREATE TABLE `organisation_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`organisation_id` text NOT NULL,
	`email` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	FOREIGN KEY (`organisation_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organisation_invitations_token_unique` ON `organisation_invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `organisation_invitations_organisation_idx` ON `organisation_invitations` (`organisation_id`);--> statement-breakpoint
CREATE INDEX `organisation_invitations_invited_by_idx` ON `organisation_invitations` (`invited_by`);--> statement-breakpoint
CREATE TABLE `organisations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`website_url` text,
	`domains` text NOT NULL,
	`verification` text DEFAULT 'unverified' NOT NULL,
	`verification_method` text,
	`verified_domain` text,
	`verification_reason` text,
	`dns_token` text,
	`verified_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE INDEX `organisations_verification_idx` ON `organisations` (`verification`,`created_at`);--> statement-breakpoint
ALTER TABLE `briefs` ADD `organisation_id` text REFERENCES organisations(id);--> statement-breakpoint
CREATE INDEX `briefs_organisation_idx` ON `briefs` (`organisation_id`);--> statement-breakpoint
ALTER TABLE `certificates` ADD `organisation_id` text REFERENCES organisations(id);--> statement-breakpoint
ALTER TABLE `certificates` ADD `signed_organisation_name` text;--> statement-breakpoint
ALTER TABLE `certificates` ADD `signed_by_person` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `certificates` ADD `earned_at` integer;--> statement-breakpoint
ALTER TABLE `certificates` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `certificates_organisation_status_idx` ON `certificates` (`organisation_id`,`status`);--> statement-breakpoint
ALTER TABLE `employer_ratings` ADD `organisation_id` text REFERENCES organisations(id);--> statement-breakpoint
CREATE INDEX `employer_ratings_organisation_created_idx` ON `employer_ratings` (`organisation_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `organisation_id` text REFERENCES organisations(id);--> statement-breakpoint
CREATE INDEX `users_organisation_idx` ON `users` (`organisation_id`);