DROP INDEX "uploads_user_idx";--> statement-breakpoint
DROP INDEX "uploads_updated_idx";--> statement-breakpoint
ALTER TABLE "uploads" ALTER COLUMN "uuid" SET DEFAULT gen_random_uuid();--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "withheld_from" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "client_uuid" uuid;--> statement-breakpoint
-- Uploads started before this migration: their handle was their id.
UPDATE "uploads" SET "client_uuid" = "uuid";--> statement-breakpoint
ALTER TABLE "uploads" ALTER COLUMN "client_uuid" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_user_client_uuid_idx" ON "uploads" USING btree ("user_id","client_uuid");--> statement-breakpoint
CREATE INDEX "uploads_created_idx" ON "uploads" USING btree ("created_at");