CREATE TABLE `leases` (
	`kind` text NOT NULL,
	`work_id` integer NOT NULL,
	`node` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `work_id`)
);
--> statement-breakpoint
CREATE INDEX `leases_node_idx` ON `leases` (`node`);--> statement-breakpoint
CREATE INDEX `leases_expiry_idx` ON `leases` (`expires_at`);