CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`details` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `audit_log_actor_created_idx` ON `audit_log` (`actor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target_type`,`target_id`);--> statement-breakpoint
CREATE TABLE `briefs` (
	`id` text PRIMARY KEY NOT NULL,
	`employer_id` text NOT NULL,
	`title` text NOT NULL,
	`domain` text NOT NULL,
	`description` text NOT NULL,
	`deliverables` text NOT NULL,
	`success_criteria` text NOT NULL,
	`duration_days` integer NOT NULL,
	`state` text DEFAULT 'draft' NOT NULL,
	`playbook_engine` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`published_at` integer,
	`closed_at` integer,
	FOREIGN KEY (`employer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `briefs_employer_idx` ON `briefs` (`employer_id`);--> statement-breakpoint
CREATE INDEX `briefs_state_domain_idx` ON `briefs` (`state`,`domain`);--> statement-breakpoint
CREATE TABLE `certificates` (
	`id` text PRIMARY KEY NOT NULL,
	`certificate_no` text NOT NULL,
	`holder_id` text NOT NULL,
	`brief_id` text NOT NULL,
	`employer_id` text NOT NULL,
	`submission_id` text,
	`domain` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`credential_jwt` text NOT NULL,
	`issued_at` integer NOT NULL,
	`revoked_at` integer,
	`revoked_reason` text,
	`revoked_by` text,
	FOREIGN KEY (`holder_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`brief_id`) REFERENCES `briefs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`employer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`revoked_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_number_unique` ON `certificates` (`certificate_no`);--> statement-breakpoint
CREATE INDEX `certificates_holder_idx` ON `certificates` (`holder_id`);--> statement-breakpoint
CREATE INDEX `certificates_domain_status_idx` ON `certificates` (`domain`,`status`);--> statement-breakpoint
CREATE TABLE `consent_events` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`action` text NOT NULL,
	`notice_version` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `consent_events_user_purpose_created_idx` ON `consent_events` (`user_id`,`purpose`,`created_at`);--> statement-breakpoint
CREATE TABLE `dsr_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`state` text DEFAULT 'received' NOT NULL,
	`details` text,
	`due_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	`completed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dsr_requests_user_created_idx` ON `dsr_requests` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `employer_ratings` (
	`id` text PRIMARY KEY NOT NULL,
	`evaluation_id` text NOT NULL,
	`employer_id` text NOT NULL,
	`brief_id` text NOT NULL,
	`domain` text NOT NULL,
	`score` integer NOT NULL,
	`verdict` text NOT NULL,
	`comment` text,
	`ai_verdict` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`evaluation_id`) REFERENCES `evaluations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`employer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`brief_id`) REFERENCES `briefs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `employer_ratings_evaluation_unique` ON `employer_ratings` (`evaluation_id`);--> statement-breakpoint
CREATE INDEX `employer_ratings_created_idx` ON `employer_ratings` (`created_at`);--> statement-breakpoint
CREATE INDEX `employer_ratings_employer_created_idx` ON `employer_ratings` (`employer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `employer_ratings_domain_created_idx` ON `employer_ratings` (`domain`,`created_at`);--> statement-breakpoint
CREATE TABLE `erasure_receipts` (
	`request_id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`deleted_counts` text NOT NULL,
	`requested_at` integer NOT NULL,
	`completed_at` integer
);
--> statement-breakpoint
CREATE TABLE `evaluations` (
	`id` text PRIMARY KEY NOT NULL,
	`submission_id` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`ai_evaluated` integer NOT NULL,
	`criterion_scores` text,
	`overall_score` integer,
	`verdict` text,
	`engine` text,
	`integrity` text,
	`failure_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `evaluations_submission_unique` ON `evaluations` (`submission_id`);--> statement-breakpoint
CREATE TABLE `fingerprints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hash` integer NOT NULL,
	`submission_id` text NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fingerprints_hash_idx` ON `fingerprints` (`hash`);--> statement-breakpoint
CREATE INDEX `fingerprints_submission_idx` ON `fingerprints` (`submission_id`);--> statement-breakpoint
CREATE TABLE `milestones` (
	`id` text PRIMARY KEY NOT NULL,
	`brief_id` text NOT NULL,
	`position` integer NOT NULL,
	`day` integer NOT NULL,
	`title` text NOT NULL,
	`tasks` text NOT NULL,
	`tutorial_links` text NOT NULL,
	`is_final` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`brief_id`) REFERENCES `briefs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `milestones_brief_position_unique` ON `milestones` (`brief_id`,`position`);--> statement-breakpoint
CREATE TABLE `rubrics` (
	`id` text PRIMARY KEY NOT NULL,
	`brief_id` text NOT NULL,
	`criteria` text NOT NULL,
	`pass_threshold` integer NOT NULL,
	`engine` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`brief_id`) REFERENCES `briefs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rubrics_brief_unique` ON `rubrics` (`brief_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	`last_seen_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_unique` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`candidate_id` text NOT NULL,
	`brief_id` text NOT NULL,
	`milestone_id` text NOT NULL,
	`text` text,
	`files` text,
	`repository_url` text,
	`commits` text,
	`state` text DEFAULT 'submitted' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`candidate_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`brief_id`) REFERENCES `briefs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`milestone_id`) REFERENCES `milestones`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `submissions_candidate_created_idx` ON `submissions` (`candidate_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_brief_created_idx` ON `submissions` (`brief_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_milestone_idx` ON `submissions` (`milestone_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`public_alias` text,
	`password_hash` text NOT NULL,
	`password_salt` text NOT NULL,
	`password_iterations` integer NOT NULL,
	`disabled_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);