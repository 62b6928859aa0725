-- Outcomes at a glance: delivered and read beside success and fail, per WIB day (UTC+7) for everyone and per
-- member (message_log_days), and per account (whatsapp_days, new). A message counts as delivered once its
-- delivery_status is 'delivered' or 'read', and as read once it is 'read'; the counters are a function of the
-- rows as they stand, so a repeated or late status (which never moves a row back) cannot count twice. The day
-- is the day of the send. The statement triggers of 0007 keep both tables in the same statement: the sums of
-- message_log_days first, then the accounts' rows (one writer per account, so no shards), in that order in
-- every trigger, so a tick and a status never take them in opposite orders.
ALTER TABLE "message_log_days" ADD COLUMN "delivered" bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "message_log_days" ADD COLUMN "read" bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
INSERT INTO "message_log_days" ("day", "user_id", "shard", "delivered", "read")
SELECT (("created_at" + 25200000) / 86400000)::int, u.user_id, 0, count(*), count(*) FILTER (WHERE "delivery_status" = 'read')
FROM "message_logs" CROSS JOIN LATERAL (VALUES (0), ("message_logs"."user_id")) u(user_id)
WHERE "delivery_status" IN ('delivered', 'read') GROUP BY 1, 2
ON CONFLICT ("user_id", "day", "shard") DO UPDATE SET "delivered" = excluded."delivered", "read" = excluded."read";
--> statement-breakpoint
CREATE TABLE "whatsapp_days" (
	"whatsapp_id" integer NOT NULL,
	"day" integer NOT NULL,
	"success" bigint NOT NULL DEFAULT 0,
	"fail" bigint NOT NULL DEFAULT 0,
	"delivered" bigint NOT NULL DEFAULT 0,
	"read" bigint NOT NULL DEFAULT 0,
	PRIMARY KEY ("whatsapp_id", "day")
);
--> statement-breakpoint
INSERT INTO "whatsapp_days" ("whatsapp_id", "day", "success", "fail", "delivered", "read")
SELECT "whatsapp_id", (("created_at" + 25200000) / 86400000)::int, count(*) FILTER (WHERE "success" = 1), count(*) FILTER (WHERE "success" <> 1),
	count(*) FILTER (WHERE "delivery_status" IN ('delivered', 'read')), count(*) FILTER (WHERE "delivery_status" = 'read')
FROM "message_logs" WHERE "whatsapp_id" IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_log_days_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO message_log_days (day, user_id, shard, success, fail, income, delivered, read)
	SELECT g.day, u.user_id, pg_backend_pid() % 16, sum(g.s), sum(g.f), sum(g.i), sum(g.d), sum(g.r)
	FROM (SELECT ((created_at + 25200000) / 86400000)::int AS day, user_id, count(*) FILTER (WHERE success = 1) AS s,
			count(*) FILTER (WHERE success <> 1) AS f, coalesce(sum(income), 0) AS i,
			count(*) FILTER (WHERE delivery_status IN ('delivered', 'read')) AS d, count(*) FILTER (WHERE delivery_status = 'read') AS r
		FROM new_rows GROUP BY 1, 2) g
	CROSS JOIN LATERAL (VALUES (0), (g.user_id)) u(user_id)
	GROUP BY 1, 2
	ON CONFLICT (user_id, day, shard) DO UPDATE SET success = message_log_days.success + excluded.success,
		fail = message_log_days.fail + excluded.fail, income = message_log_days.income + excluded.income,
		delivered = message_log_days.delivered + excluded.delivered, read = message_log_days.read + excluded.read;
	INSERT INTO whatsapp_days (whatsapp_id, day, success, fail, delivered, read)
	SELECT whatsapp_id, ((created_at + 25200000) / 86400000)::int, count(*) FILTER (WHERE success = 1), count(*) FILTER (WHERE success <> 1),
		count(*) FILTER (WHERE delivery_status IN ('delivered', 'read')), count(*) FILTER (WHERE delivery_status = 'read')
	FROM new_rows WHERE whatsapp_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2
	ON CONFLICT (whatsapp_id, day) DO UPDATE SET success = whatsapp_days.success + excluded.success, fail = whatsapp_days.fail + excluded.fail,
		delivered = whatsapp_days.delivered + excluded.delivered, read = whatsapp_days.read + excluded.read;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_log_days_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO message_log_days (day, user_id, shard, success, fail, income, delivered, read)
	SELECT g.day, u.user_id, pg_backend_pid() % 16, sum(g.s), sum(g.f), sum(g.i), sum(g.d), sum(g.r)
	FROM (SELECT ((o.created_at + 25200000) / 86400000)::int AS day, o.user_id,
			sum((n.success = 1)::int - (o.success = 1)::int) AS s, sum((n.success <> 1)::int - (o.success <> 1)::int) AS f,
			sum(n.income - o.income) AS i,
			sum(coalesce(n.delivery_status IN ('delivered', 'read'), false)::int - coalesce(o.delivery_status IN ('delivered', 'read'), false)::int) AS d,
			sum(coalesce(n.delivery_status = 'read', false)::int - coalesce(o.delivery_status = 'read', false)::int) AS r
		FROM old_rows o JOIN new_rows n ON n.id = o.id
		WHERE n.success IS DISTINCT FROM o.success OR n.income IS DISTINCT FROM o.income OR n.delivery_status IS DISTINCT FROM o.delivery_status
		GROUP BY 1, 2) g
	CROSS JOIN LATERAL (VALUES (0), (g.user_id)) u(user_id)
	GROUP BY 1, 2
	ON CONFLICT (user_id, day, shard) DO UPDATE SET success = message_log_days.success + excluded.success,
		fail = message_log_days.fail + excluded.fail, income = message_log_days.income + excluded.income,
		delivered = message_log_days.delivered + excluded.delivered, read = message_log_days.read + excluded.read;
	INSERT INTO whatsapp_days (whatsapp_id, day, success, fail, delivered, read)
	SELECT c.whatsapp_id, c.day, sum(c.s), sum(c.f), sum(c.d), sum(c.r)
	FROM old_rows o JOIN new_rows n ON n.id = o.id
	CROSS JOIN LATERAL (VALUES
		(o.whatsapp_id, ((o.created_at + 25200000) / 86400000)::int, -(o.success = 1)::int, -(o.success <> 1)::int,
			-coalesce(o.delivery_status IN ('delivered', 'read'), false)::int, -coalesce(o.delivery_status = 'read', false)::int),
		(n.whatsapp_id, ((n.created_at + 25200000) / 86400000)::int, (n.success = 1)::int, (n.success <> 1)::int,
			coalesce(n.delivery_status IN ('delivered', 'read'), false)::int, coalesce(n.delivery_status = 'read', false)::int)
	) c(whatsapp_id, day, s, f, d, r)
	WHERE c.whatsapp_id IS NOT NULL AND (n.success IS DISTINCT FROM o.success OR n.delivery_status IS DISTINCT FROM o.delivery_status
		OR n.whatsapp_id IS DISTINCT FROM o.whatsapp_id)
	GROUP BY 1, 2 ORDER BY 1, 2
	ON CONFLICT (whatsapp_id, day) DO UPDATE SET success = whatsapp_days.success + excluded.success, fail = whatsapp_days.fail + excluded.fail,
		delivered = whatsapp_days.delivered + excluded.delivered, read = whatsapp_days.read + excluded.read;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_log_days_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO message_log_days (day, user_id, shard, success, fail, income, delivered, read)
	SELECT g.day, u.user_id, pg_backend_pid() % 16, -sum(g.s), -sum(g.f), -sum(g.i), -sum(g.d), -sum(g.r)
	FROM (SELECT ((created_at + 25200000) / 86400000)::int AS day, user_id, count(*) FILTER (WHERE success = 1) AS s,
			count(*) FILTER (WHERE success <> 1) AS f, coalesce(sum(income), 0) AS i,
			count(*) FILTER (WHERE delivery_status IN ('delivered', 'read')) AS d, count(*) FILTER (WHERE delivery_status = 'read') AS r
		FROM old_rows GROUP BY 1, 2) g
	CROSS JOIN LATERAL (VALUES (0), (g.user_id)) u(user_id)
	GROUP BY 1, 2
	ON CONFLICT (user_id, day, shard) DO UPDATE SET success = message_log_days.success + excluded.success,
		fail = message_log_days.fail + excluded.fail, income = message_log_days.income + excluded.income,
		delivered = message_log_days.delivered + excluded.delivered, read = message_log_days.read + excluded.read;
	INSERT INTO whatsapp_days (whatsapp_id, day, success, fail, delivered, read)
	SELECT whatsapp_id, ((created_at + 25200000) / 86400000)::int, -count(*) FILTER (WHERE success = 1), -count(*) FILTER (WHERE success <> 1),
		-count(*) FILTER (WHERE delivery_status IN ('delivered', 'read')), -count(*) FILTER (WHERE delivery_status = 'read')
	FROM old_rows WHERE whatsapp_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2
	ON CONFLICT (whatsapp_id, day) DO UPDATE SET success = whatsapp_days.success + excluded.success, fail = whatsapp_days.fail + excluded.fail,
		delivered = whatsapp_days.delivered + excluded.delivered, read = whatsapp_days.read + excluded.read;
	RETURN NULL;
END $$;
