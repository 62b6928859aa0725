-- A blast start set for a later time (engine/schedule.ts): one per account, claimed by one node when due.
CREATE TABLE `blast_schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`whatsapp_id` integer NOT NULL,
	`user_id` integer,
	`run_at` integer NOT NULL,
	`claimed_until` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blast_schedules_whatsapp_uq` ON `blast_schedules` (`whatsapp_id`);--> statement-breakpoint
CREATE INDEX `blast_schedules_run_at_idx` ON `blast_schedules` (`run_at`);
