CREATE TABLE `bonuses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`admin_id` integer,
	`nominal` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `bonuses_user_idx` ON `bonuses` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `generator_results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`generator_id` integer NOT NULL,
	`number` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`generator_id`) REFERENCES `generators`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `generator_results_uq` ON `generator_results` (`generator_id`,`number`);--> statement-breakpoint
CREATE TABLE `generators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`whatsapp_id` integer,
	`start_number` text NOT NULL,
	`end_number` text NOT NULL,
	`current_number` text,
	`b_insert` integer DEFAULT 0 NOT NULL,
	`interval_min` integer DEFAULT 1 NOT NULL,
	`interval_max` integer DEFAULT 2 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`checked` integer DEFAULT 0 NOT NULL,
	`count_success` integer DEFAULT 0 NOT NULL,
	`count_fail` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'idle' NOT NULL,
	`state` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `generators_user_idx` ON `generators` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `levels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`blast_fee` integer NOT NULL,
	`requirement_blast` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `levels_requirement_idx` ON `levels` (`requirement_blast`);--> statement-breakpoint
CREATE TABLE `message_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`whatsapp_id` integer,
	`user_id` integer NOT NULL,
	`phone_number_id` integer,
	`number` text NOT NULL,
	`template_id` integer,
	`success` integer NOT NULL,
	`error_code` text,
	`income` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `message_logs_user_time_idx` ON `message_logs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `message_logs_time_idx` ON `message_logs` (`created_at`);--> statement-breakpoint
CREATE INDEX `message_logs_whatsapp_idx` ON `message_logs` (`whatsapp_id`);--> statement-breakpoint
CREATE INDEX `message_logs_number_idx` ON `message_logs` (`number`,`created_at`);--> statement-breakpoint
CREATE TABLE `message_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`media` text,
	`text` text DEFAULT '' NOT NULL,
	`text_wa` text DEFAULT '' NOT NULL,
	`button` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`count_use` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `message_templates_pick_idx` ON `message_templates` (`status`,`count_use`);--> statement-breakpoint
CREATE TABLE `opt_outs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`number` text NOT NULL,
	`reason` text NOT NULL,
	`whatsapp_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `opt_outs_number_uq` ON `opt_outs` (`number`);--> statement-breakpoint
CREATE TABLE `phone_numbers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`number` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`in_use` integer DEFAULT 0 NOT NULL,
	`claimed_by` integer,
	`count_success` integer DEFAULT 0 NOT NULL,
	`count_fail` integer DEFAULT 0 NOT NULL,
	`last_sent` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `phone_numbers_number_uq` ON `phone_numbers` (`number`);--> statement-breakpoint
CREATE INDEX `phone_numbers_target_idx` ON `phone_numbers` (`status`,`in_use`,`last_sent`);--> statement-breakpoint
CREATE TABLE `proxies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`value` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`count_use` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proxies_value_uq` ON `proxies` (`value`);--> statement-breakpoint
CREATE INDEX `proxies_status_use_idx` ON `proxies` (`status`,`count_use`);--> statement-breakpoint
CREATE TABLE `referral_credits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`referrer_id` integer NOT NULL,
	`referred_id` integer NOT NULL,
	`message_log_id` integer,
	`amount` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `referral_credits_referrer_idx` ON `referral_credits` (`referrer_id`,`referred_id`);--> statement-breakpoint
CREATE TABLE `settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`interval_min` integer DEFAULT 1 NOT NULL,
	`interval_max` integer DEFAULT 2 NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`bank_names` text DEFAULT 'BCA, MANDIRI, BRI' NOT NULL,
	`colors` text DEFAULT '#2C2C2C, #3E3A32' NOT NULL,
	`referral_percent` integer DEFAULT 0 NOT NULL,
	`info` text DEFAULT '' NOT NULL,
	`recipient_cooldown_hours` integer DEFAULT 24 NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`firstname` text NOT NULL,
	`lastname` text DEFAULT '' NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text DEFAULT 'member' NOT NULL,
	`referral_code` text NOT NULL,
	`referred_by` integer,
	`account_bank` text,
	`account_number` text,
	`account_name` text,
	`blast_interval_min` integer,
	`blast_interval_max` integer,
	`blast_fee` integer,
	`total_success` integer DEFAULT 0 NOT NULL,
	`total_fail` integer DEFAULT 0 NOT NULL,
	`income` integer DEFAULT 0 NOT NULL,
	`session_epoch` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_referral_code_uq` ON `users` (`referral_code`);--> statement-breakpoint
CREATE INDEX `users_referred_by_idx` ON `users` (`referred_by`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`,`id`);--> statement-breakpoint
CREATE TABLE `validator_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`validator_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`number` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`result` text,
	`reason` text,
	`result_name` text,
	FOREIGN KEY (`validator_id`) REFERENCES `validators`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `validator_items_seq_uq` ON `validator_items` (`validator_id`,`seq`);--> statement-breakpoint
CREATE INDEX `validator_items_result_idx` ON `validator_items` (`validator_id`,`result`);--> statement-breakpoint
CREATE TABLE `validators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`whatsapp_id` integer,
	`file_name` text NOT NULL,
	`file_url` text NOT NULL,
	`b_insert` integer DEFAULT 0 NOT NULL,
	`interval_min` integer DEFAULT 1 NOT NULL,
	`interval_max` integer DEFAULT 2 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`checked` integer DEFAULT 0 NOT NULL,
	`count_success` integer DEFAULT 0 NOT NULL,
	`count_fail` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'idle' NOT NULL,
	`state` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `validators_user_idx` ON `validators` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `whatsapps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_id` text NOT NULL,
	`clientid` text NOT NULL,
	`pushname` text,
	`phonenumber` text,
	`server` text,
	`serialized` text,
	`proxy_id` integer,
	`user_id` integer NOT NULL,
	`state` text,
	`status` text DEFAULT 'idle' NOT NULL,
	`interval` integer,
	`count_success` integer DEFAULT 0 NOT NULL,
	`count_fail` integer DEFAULT 0 NOT NULL,
	`income` integer DEFAULT 0 NOT NULL,
	`suspended` integer DEFAULT false NOT NULL,
	`suspended_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`proxy_id`) REFERENCES `proxies`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapps_device_uq` ON `whatsapps` (`device_id`);--> statement-breakpoint
CREATE INDEX `whatsapps_clientid_idx` ON `whatsapps` (`clientid`);--> statement-breakpoint
CREATE INDEX `whatsapps_user_idx` ON `whatsapps` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `whatsapps_state_idx` ON `whatsapps` (`state`);--> statement-breakpoint
CREATE INDEX `whatsapps_phone_idx` ON `whatsapps` (`phonenumber`);--> statement-breakpoint
CREATE TABLE `withdrawals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`nominal` integer NOT NULL,
	`status` text DEFAULT 'requested' NOT NULL,
	`updated_by` integer,
	`updated_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `withdrawals_user_idx` ON `withdrawals` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `withdrawals_time_idx` ON `withdrawals` (`created_at`);