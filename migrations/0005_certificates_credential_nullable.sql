PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_certificates` (
	`id` text PRIMARY KEY NOT NULL,
	`certificate_no` text NOT NULL,
	`holder_id` text NOT NULL,
	`brief_id` text NOT NULL,
	`employer_id` text NOT NULL,
	`submission_id` text,
	`domain` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`credential_jwt` text,
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
INSERT INTO `__new_certificates`("id", "certificate_no", "holder_id", "brief_id", "employer_id", "submission_id", "domain", "status", "credential_jwt", "issued_at", "revoked_at", "revoked_reason", "revoked_by") SELECT "id", "certificate_no", "holder_id", "brief_id", "employer_id", "submission_id", "domain", "status", "credential_jwt", "issued_at", "revoked_at", "revoked_reason", "revoked_by" FROM `certificates`;--> statement-breakpoint
DROP TABLE `certificates`;--> statement-breakpoint
ALTER TABLE `__new_certificates` RENAME TO `certificates`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_number_unique` ON `certificates` (`certificate_no`);--> statement-breakpoint
CREATE INDEX `certificates_holder_idx` ON `certificates` (`holder_id`);--> statement-breakpoint
CREATE INDEX `certificates_submission_idx` ON `certificates` (`submission_id`);--> statement-breakpoint
CREATE INDEX `certificates_employer_idx` ON `certificates` (`employer_id`);--> statement-breakpoint
CREATE INDEX `certificates_brief_idx` ON `certificates` (`brief_id`);--> statement-breakpoint
CREATE INDEX `certificates_revoked_by_idx` ON `certificates` (`revoked_by`);--> statement-breakpoint
CREATE INDEX `certificates_domain_status_idx` ON `certificates` (`domain`,`status`);