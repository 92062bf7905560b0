CREATE TABLE "patreon_webhook_deliveries" (
	"digest" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_memberships" ADD COLUMN "entitled_until" timestamp with time zone;