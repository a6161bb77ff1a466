CREATE TABLE `credential_offers` (
	`id` text PRIMARY KEY NOT NULL,
	`code_hash` text NOT NULL,
	`certificate_id` text NOT NULL,
	`holder_id` text NOT NULL,
	`tx_code_hash` text,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`redeemed_at` integer,
	`access_token_hash` text,
	`access_expires_at` integer,
	`issued_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`certificate_id`) REFERENCES `certificates`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`holder_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credential_offers_code_unique` ON `credential_offers` (`code_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `credential_offers_token_unique` ON `credential_offers` (`access_token_hash`);--> statement-breakpoint
ALTER TABLE `certificates` ADD `credential_data_integrity` text;