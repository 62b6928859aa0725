-- Accounts per member and for everyone (user_id 0), and how many of them are active (connected or sending,
-- not suspended), so the dashboards' connected/disconnected figures read a few rows instead of counting
-- the accounts. Statement-level triggers fold each statement in; rows are split over 16 shards by backend.
CREATE TABLE "whatsapp_counts" (
	"user_id" integer NOT NULL,
	"shard" integer NOT NULL DEFAULT 0,
	"total" bigint NOT NULL DEFAULT 0,
	"active" bigint NOT NULL DEFAULT 0,
	PRIMARY KEY ("user_id", "shard")
);
--> statement-breakpoint
INSERT INTO "whatsapp_counts" ("user_id", "shard", "total", "active")
SELECT 0, 0, count(*), count(*) FILTER (WHERE coalesce("state", '') IN ('connected', 'sending') AND "suspended" = 0) FROM "whatsapps";
--> statement-breakpoint
INSERT INTO "whatsapp_counts" ("user_id", "shard", "total", "active")
SELECT "user_id", 0, count(*), count(*) FILTER (WHERE coalesce("state", '') IN ('connected', 'sending') AND "suspended" = 0) FROM "whatsapps" GROUP BY 1;
--> statement-breakpoint
-- Adds signed changes (a member, accounts, active accounts) to that member's figures and everyone's.
CREATE FUNCTION whatsapp_counts_fold(d_user integer[], d_total bigint[], d_active bigint[]) RETURNS void LANGUAGE sql AS $$
	INSERT INTO whatsapp_counts (user_id, shard, total, active)
	SELECT u.user_id, pg_backend_pid() % 16, sum(d.t), sum(d.a)
	FROM unnest(d_user, d_total, d_active) AS d(user_id, t, a)
	CROSS JOIN LATERAL (VALUES (0), (d.user_id)) u(user_id)
	GROUP BY 1, 2
	HAVING sum(d.t) <> 0 OR sum(d.a) <> 0
	ON CONFLICT (user_id, shard) DO UPDATE SET total = whatsapp_counts.total + excluded.total, active = whatsapp_counts.active + excluded.active;
$$;
--> statement-breakpoint
CREATE FUNCTION whatsapp_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM whatsapp_counts_fold(array_agg(user_id), array_agg(1::bigint), array_agg((coalesce(state, '') IN ('connected', 'sending') AND suspended = 0)::int::bigint))
	FROM new_rows;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER whatsapp_counts_ai AFTER INSERT ON whatsapps REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION whatsapp_counts_inserted();
--> statement-breakpoint
CREATE FUNCTION whatsapp_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM whatsapp_counts_fold(array_agg(user_id), array_agg(-1::bigint), array_agg(-((coalesce(state, '') IN ('connected', 'sending') AND suspended = 0)::int)::bigint))
	FROM old_rows;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER whatsapp_counts_ad AFTER DELETE ON whatsapps REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION whatsapp_counts_deleted();
--> statement-breakpoint
CREATE FUNCTION whatsapp_counts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM whatsapp_counts_fold(array_agg(c.user_id), array_agg(c.t), array_agg(c.a))
	FROM (
		SELECT o.user_id, -1::bigint AS t, -((coalesce(o.state, '') IN ('connected', 'sending') AND o.suspended = 0)::int)::bigint AS a
		FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE (o.user_id <> n.user_id OR (coalesce(o.state, '') IN ('connected', 'sending') AND o.suspended = 0) <> (coalesce(n.state, '') IN ('connected', 'sending') AND n.suspended = 0))
		UNION ALL
		SELECT n.user_id, 1::bigint, ((coalesce(n.state, '') IN ('connected', 'sending') AND n.suspended = 0)::int)::bigint
		FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE (o.user_id <> n.user_id OR (coalesce(o.state, '') IN ('connected', 'sending') AND o.suspended = 0) <> (coalesce(n.state, '') IN ('connected', 'sending') AND n.suspended = 0))
	) c;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER whatsapp_counts_au AFTER UPDATE ON whatsapps REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION whatsapp_counts_updated();
