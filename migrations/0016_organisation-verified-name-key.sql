ALTER TABLE `organisations` ADD `name_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `organisations_verified_name_key_idx` ON `organisations` (`name_key`) WHERE verification = 'verified';