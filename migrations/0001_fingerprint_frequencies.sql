CREATE TABLE `fingerprint_frequencies` (
	`hash` integer PRIMARY KEY NOT NULL,
	`submissions` integer NOT NULL
);
