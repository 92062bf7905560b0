ALTER TABLE "users" ADD COLUMN "listening_carry_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD COLUMN "credited_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sessions that earned points before credited time was stored credited whole minutes.
UPDATE "listening_sessions" SET "credited_ms" = "points" * 60000 WHERE "points" > 0;
