CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`ref` text,
	`subject_id` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`enqueued_at` integer,
	`lease_until` integer,
	`available_at` integer NOT NULL,
	`deadline_at` integer NOT NULL,
	`due_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	`completed_at` integer,
	`stalled_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_kind_ref_unique` ON `jobs` (`kind`,`ref`);--> statement-breakpoint
CREATE INDEX `jobs_state_available_idx` ON `jobs` (`state`,`available_at`);--> statement-breakpoint
CREATE INDEX `jobs_state_kind_idx` ON `jobs` (`state`,`kind`);--> statement-breakpoint
CREATE INDEX `jobs_created_idx` ON `jobs` (`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_subject_idx` ON `jobs` (`subject_id`);