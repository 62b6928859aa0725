-- Sends per WIB day (UTC+7), for everyone (user_id 0) and per member, so today's figures, a member's
-- income today and the daily chart read a few rows instead of counting the day's log. Statement-level
-- triggers fold a whole statement (a tick's inserts) in at once; rows are split over 16 shards chosen by
-- the writing backend, so concurrent ticks never queue on one hot row; readers sum the shards.
CREATE TABLE "message_log_days" (
	"day" integer NOT NULL,
	"user_id" integer NOT NULL,
	"shard" integer NOT NULL DEFAULT 0,
	"success" bigint NOT NULL DEFAULT 0,
	"fail" bigint NOT NULL DEFAULT 0,
	"income" bigint NOT NULL DEFAULT 0,
	PRIMARY KEY ("user_id", "day", "shard")
);
--> statement-breakpoint
INSERT INTO "message_log_days" ("day", "user_id", "shard", "success", "fail", "income")
SELECT (("created_at" + 25200000) / 86400000)::int, 0, 0, count(*) FILTER (WHERE "success" = 1), count(*) FILTER (WHERE "success" <> 1), coalesce(sum("income"), 0)
FROM "message_logs" GROUP BY 1;
--> statement-breakpoint
INSERT INTO "message_log_days" ("day", "user_id", "shard", "success", "fail", "income")
SELECT (("created_at" + 25200000) / 86400000)::int, "user_id", 0, count(*) FILTER (WHERE "success" = 1), count(*) FILTER (WHERE "success" <> 1), coalesce(sum("income"), 0)
FROM "message_logs" GROUP BY 1, 2;
--> statement-breakpoint
CREATE FUNCTION message_log_days_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO message_log_days (day, user_id, shard, success, fail, income)
	SELECT g.day, u.user_id, pg_backend_pid() % 16, sum(g.s), sum(g.f), sum(g.i)
	FROM (SELECT ((created_at + 25200000) / 86400000)::int AS day, user_id, count(*) FILTER (WHERE success = 1) AS s,
			count(*) FILTER (WHERE success <> 1) AS f, coalesce(sum(income), 0) AS i
		FROM new_rows GROUP BY 1, 2) g
	CROSS JOIN LATERAL (VALUES (0), (g.user_id)) u(user_id)
	GROUP BY 1, 2
	ON CONFLICT (user_id, day, shard) DO UPDATE SET success = message_log_days.success + excluded.success,
		fail = message_log_days.fail + excluded.fail, income = message_log_days.income + excluded.income;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER message_log_days_ai AFTER INSERT ON message_logs REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION message_log_days_inserted();
--> statement-breakpoint
CREATE FUNCTION message_log_days_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO message_log_days (day, user_id, shard, success, fail, income)
	SELECT g.day, u.user_id, pg_backend_pid() % 16, sum(g.s), sum(g.f), sum(g.i)
	FROM (SELECT ((o.created_at + 25200000) / 86400000)::int AS day, o.user_id,
			sum((n.success = 1)::int - (o.success = 1)::int) AS s, sum((n.success <> 1)::int - (o.success <> 1)::int) AS f,
			sum(n.income - o.income) AS i
		FROM old_rows o JOIN new_rows n ON n.id = o.id
		WHERE n.success IS DISTINCT FROM o.success OR n.income IS DISTINCT FROM o.income GROUP BY 1, 2) g
	CROSS JOIN LATERAL (VALUES (0), (g.user_id)) u(user_id)
	GROUP BY 1, 2
	ON CONFLICT (user_id, day, shard) DO UPDATE SET success = message_log_days.success + excluded.success,
		fail = message_log_days.fail + excluded.fail, income = message_log_days.income + excluded.income;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER message_log_days_au AFTER UPDATE ON message_logs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION message_log_days_updated();
--> statement-breakpoint
CREATE FUNCTION message_log_days_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO message_log_days (day, user_id, shard, success, fail, income)
	SELECT g.day, u.user_id, pg_backend_pid() % 16, -sum(g.s), -sum(g.f), -sum(g.i)
	FROM (SELECT ((created_at + 25200000) / 86400000)::int AS day, user_id, count(*) FILTER (WHERE success = 1) AS s,
			count(*) FILTER (WHERE success <> 1) AS f, coalesce(sum(income), 0) AS i
		FROM old_rows GROUP BY 1, 2) g
	CROSS JOIN LATERAL (VALUES (0), (g.user_id)) u(user_id)
	GROUP BY 1, 2
	ON CONFLICT (user_id, day, shard) DO UPDATE SET success = message_log_days.success + excluded.success,
		fail = message_log_days.fail + excluded.fail, income = message_log_days.income + excluded.income;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER message_log_days_ad AFTER DELETE ON message_logs REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION message_log_days_deleted();
