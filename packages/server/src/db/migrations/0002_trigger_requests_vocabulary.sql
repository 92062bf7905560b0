ALTER TABLE "triggers" ALTER COLUMN "creator_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "triggers" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "triggers" ADD COLUMN "weight" real DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "triggers" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "triggers_pending_idx" ON "triggers" USING btree ("pending") WHERE "triggers"."pending";--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_weight_check" CHECK ("triggers"."weight" between 0.2 and 1);