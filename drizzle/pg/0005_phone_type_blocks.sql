-- Rows per line type per block of 1,024 ids: the 'Jenis Nomor' filter counts and pages like the whole list
-- (a seek to the page's block, then at most 1,023 steps on (line_type, id)). Statement triggers keep it
-- exact.
CREATE TABLE "phone_type_blocks" (
	"line_type" text NOT NULL,
	"block" integer NOT NULL,
	"n" bigint NOT NULL,
	PRIMARY KEY ("line_type", "block")
);
--> statement-breakpoint
INSERT INTO "phone_type_blocks" ("line_type", "block", "n")
SELECT coalesce("line_type", ''), "id" >> 10, count(*) FROM "phone_numbers" GROUP BY 1, 2;
--> statement-breakpoint
CREATE INDEX "phone_numbers_type_id_idx" ON "phone_numbers" USING btree ("line_type", "id");
--> statement-breakpoint
CREATE FUNCTION phone_types_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO phone_type_blocks (line_type, block, n) SELECT coalesce(line_type, ''), id >> 10, count(*) FROM new_rows GROUP BY 1, 2
	ON CONFLICT (line_type, block) DO UPDATE SET n = phone_type_blocks.n + excluded.n;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_types_ai AFTER INSERT ON phone_numbers REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION phone_types_inserted();
--> statement-breakpoint
CREATE FUNCTION phone_types_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE phone_type_blocks b SET n = b.n - d.n
	FROM (SELECT coalesce(line_type, '') AS line_type, id >> 10 AS block, count(*) AS n FROM old_rows GROUP BY 1, 2) d
	WHERE b.line_type = d.line_type AND b.block = d.block;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_types_ad AFTER DELETE ON phone_numbers REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION phone_types_deleted();
--> statement-breakpoint
-- The update trigger of the list figures (0001), joinless: each figure is what the new rows hold minus what
-- the old rows held, grouped, so no plan (plpgsql caches them per connection, made on the engine's one-row
-- statements) can become a nested loop over two large transition tables. It also moves rows whose line type
-- changed between the type's blocks.
CREATE OR REPLACE FUNCTION phone_list_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE phone_list_state SET active = active + s.a, blasted = blasted + s.b, edits = edits + s.e
	FROM (
		SELECT
			(SELECT count(*) FILTER (WHERE status = 'active') FROM new_rows) - (SELECT count(*) FILTER (WHERE status = 'active') FROM old_rows) AS a,
			(SELECT count(*) FILTER (WHERE count_success > 0) FROM new_rows) - (SELECT count(*) FILTER (WHERE count_success > 0) FROM old_rows) AS b,
			(SELECT count(*) FROM (SELECT id, number, name FROM new_rows EXCEPT ALL SELECT id, number, name FROM old_rows) c) AS e
	) s
	WHERE shard = pg_backend_pid() % 16 AND (s.a <> 0 OR s.b <> 0 OR s.e <> 0);
	INSERT INTO phone_sent_slots (slot, n)
	SELECT slot, sum(d) FROM (
		SELECT last_sent / 10000 AS slot, -1 AS d FROM old_rows WHERE status = 'active' AND last_sent IS NOT NULL
		UNION ALL
		SELECT last_sent / 10000, 1 FROM new_rows WHERE status = 'active' AND last_sent IS NOT NULL
	) x GROUP BY 1 HAVING sum(d) <> 0
	ON CONFLICT (slot) DO UPDATE SET n = phone_sent_slots.n + excluded.n;
	INSERT INTO phone_type_blocks (line_type, block, n)
	SELECT t, b, sum(d) FROM (
		SELECT coalesce(line_type, '') AS t, id >> 10 AS b, -1 AS d FROM old_rows
		UNION ALL
		SELECT coalesce(line_type, ''), id >> 10, 1 FROM new_rows
	) x GROUP BY 1, 2 HAVING sum(d) <> 0
	ON CONFLICT (line_type, block) DO UPDATE SET n = phone_type_blocks.n + excluded.n;
	RETURN NULL;
END $$;
