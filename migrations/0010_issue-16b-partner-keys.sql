CREATE TABLE `api_key_usage` (
	`api_key_id` text NOT NULL,
	`day` text NOT NULL,
	`success` integer DEFAULT 0 NOT NULL,
	`client_error` integer DEFAULT 0 NOT NULL,
	`rate_limited` integer DEFAULT 0 NOT NULL,
	`server_error` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_key_usage_key_day_unique` ON `api_key_usage` (`api_key_id`,`day`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`caller` text NOT NULL,
	`key` text NOT NULL,
	`user_id` text,
	`api_key_id` text,
	`request_hash` text NOT NULL,
	`status` integer,
	`headers` text,
	`body` text,
	`locked_until` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_keys_caller_key_unique` ON `idempotency_keys` (`caller`,`key`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_user_idx` ON `idempotency_keys` (`user_id`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_api_key_idx` ON `idempotency_keys` (`api_key_id`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `ratelimit_per_minute` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `previous_key_hash` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `previous_key_expires_at` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rolled_at` integer;--> statement-breakpoint
CREATE INDEX `api_keys_previous_key_hash_idx` ON `api_keys` (`previous_key_hash`);