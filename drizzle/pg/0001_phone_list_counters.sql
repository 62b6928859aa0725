-- Maintained figures of the phone-number list, so no request or engine timer counts millions of rows.
-- Statement-level triggers fold whole statements (an import's COPY or multi-row INSERT, the engine's
-- updates) in at once. The figures are split over 16 shards, chosen by the writing backend, so concurrent
-- writers never queue on one hot row; readers sum the shards.
CREATE TABLE "phone_list_state" (
	"shard" integer PRIMARY KEY NOT NULL CHECK ("shard" >= 0 AND "shard" < 16),
	"total" bigint NOT NULL DEFAULT 0,
	"active" bigint NOT NULL DEFAULT 0,
	"blasted" bigint NOT NULL DEFAULT 0,
	"edits" bigint NOT NULL DEFAULT 0
);
--> statement-breakpoint
INSERT INTO "phone_list_state" ("shard") SELECT generate_series(0, 15);
--> statement-breakpoint
-- Rows per block of 1,024 ids: a page number becomes a seek to its block plus at most 1,024 steps.
CREATE TABLE "phone_id_blocks" (
	"block" integer PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- Active rows per 10-second slot of last_sent: the engine's progress sums slots instead of rows.
CREATE TABLE "phone_sent_slots" (
	"slot" bigint PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION phone_list_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE phone_list_state SET total = total + s.n, active = active + s.a, blasted = blasted + s.b
	FROM (SELECT count(*) AS n, count(*) FILTER (WHERE status = 'active') AS a, count(*) FILTER (WHERE count_success > 0) AS b FROM new_rows) s
	WHERE shard = pg_backend_pid() % 16 AND s.n > 0;
	INSERT INTO phone_id_blocks (block, n) SELECT id >> 10, count(*) FROM new_rows GROUP BY 1
	ON CONFLICT (block) DO UPDATE SET n = phone_id_blocks.n + excluded.n;
	INSERT INTO phone_sent_slots (slot, n) SELECT last_sent / 10000, count(*) FROM new_rows
	WHERE status = 'active' AND last_sent IS NOT NULL GROUP BY 1
	ON CONFLICT (slot) DO UPDATE SET n = phone_sent_slots.n + excluded.n;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_list_ai AFTER INSERT ON phone_numbers REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION phone_list_inserted();
--> statement-breakpoint
CREATE FUNCTION phone_list_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE phone_list_state SET total = total - s.n, active = active - s.a, blasted = blasted - s.b
	FROM (SELECT count(*) AS n, count(*) FILTER (WHERE status = 'active') AS a, count(*) FILTER (WHERE count_success > 0) AS b FROM old_rows) s
	WHERE shard = pg_backend_pid() % 16 AND s.n > 0;
	UPDATE phone_id_blocks b SET n = b.n - d.n FROM (SELECT id >> 10 AS block, count(*) AS n FROM old_rows GROUP BY 1) d WHERE b.block = d.block;
	UPDATE phone_sent_slots t SET n = t.n - d.n
	FROM (SELECT last_sent / 10000 AS slot, count(*) AS n FROM old_rows WHERE status = 'active' AND last_sent IS NOT NULL GROUP BY 1) d
	WHERE t.slot = d.slot;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_list_ad AFTER DELETE ON phone_numbers REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION phone_list_deleted();
--> statement-breakpoint
CREATE FUNCTION phone_list_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE phone_list_state SET active = active + s.a, blasted = blasted + s.b, edits = edits + s.e
	FROM (
		SELECT
			coalesce(sum((n.status = 'active')::int - (o.status = 'active')::int), 0) AS a,
			coalesce(sum((n.count_success > 0)::int - (o.count_success > 0)::int), 0) AS b,
			count(*) FILTER (WHERE n.number IS DISTINCT FROM o.number OR n.name IS DISTINCT FROM o.name) AS e
		FROM new_rows n JOIN old_rows o ON o.id = n.id
	) s
	WHERE shard = pg_backend_pid() % 16 AND (s.a <> 0 OR s.b <> 0 OR s.e <> 0);
	UPDATE phone_sent_slots t SET n = t.n - d.n
	FROM (
		SELECT o.last_sent / 10000 AS slot, count(*) AS n FROM old_rows o JOIN new_rows n ON n.id = o.id
		WHERE o.status = 'active' AND o.last_sent IS NOT NULL
			AND (n.status IS DISTINCT FROM o.status OR n.last_sent / 10000 IS DISTINCT FROM o.last_sent / 10000)
		GROUP BY 1
	) d
	WHERE t.slot = d.slot;
	INSERT INTO phone_sent_slots (slot, n)
	SELECT n.last_sent / 10000, count(*) FROM new_rows n JOIN old_rows o ON o.id = n.id
	WHERE n.status = 'active' AND n.last_sent IS NOT NULL
		AND (n.status IS DISTINCT FROM o.status OR n.last_sent / 10000 IS DISTINCT FROM o.last_sent / 10000)
	GROUP BY 1
	ON CONFLICT (slot) DO UPDATE SET n = phone_sent_slots.n + excluded.n;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_list_au AFTER UPDATE ON phone_numbers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION phone_list_updated();
--> statement-breakpoint
-- Search by any fragment of a number or a name: trigram indexes serve LIKE/ILIKE '%…%'.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--> statement-breakpoint
CREATE INDEX "phone_numbers_number_trgm" ON "phone_numbers" USING gin ("number" public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "phone_numbers_name_trgm" ON "phone_numbers" USING gin ("name" public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "users_search_trgm" ON "users" USING gin (("firstname" || ' ' || "lastname" || ' ' || "email") public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "whatsapps_search_trgm" ON "whatsapps" USING gin ((coalesce("pushname", '') || ' ' || coalesce("phonenumber", '') || ' ' || "clientid") public.gin_trgm_ops);
