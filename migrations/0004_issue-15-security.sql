ALTER TABLE `audit_log` ADD `ip` text;--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_action_created_idx` ON `audit_log` (`action`,`created_at`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `storage_bytes` integer DEFAULT 0 NOT NULL;