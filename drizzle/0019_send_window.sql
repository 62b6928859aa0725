-- 'Jam Kirim' and the install's time zone (engine/window.ts): numbers are messaged only inside the window of their local time.
ALTER TABLE `settings` ADD `send_from` text DEFAULT '08:00' NOT NULL;--> statement-breakpoint
ALTER TABLE `settings` ADD `send_to` text DEFAULT '20:00' NOT NULL;--> statement-breakpoint
ALTER TABLE `settings` ADD `time_zone` text DEFAULT 'Asia/Jakarta' NOT NULL;
