-- The last send to numbers whose list row was deleted: a number added back keeps its recipient cooldown.
-- IF NOT EXISTS: this table first shipped inside the request-keys migration after that had been released,
-- so databases migrated since then have it already.
CREATE TABLE IF NOT EXISTS `removed_recipients` (
	`number` text PRIMARY KEY NOT NULL,
	`last_sent` integer NOT NULL
);
