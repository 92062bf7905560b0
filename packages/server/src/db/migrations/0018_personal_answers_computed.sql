-- Answers that read a user's own ratings or progress are computed each time (platform/read-cache.ts):
-- no per-user generation is kept any more.
DROP FUNCTION IF EXISTS "bump_viewer_generation"() CASCADE;--> statement-breakpoint
DROP TABLE "viewer_generation" CASCADE;
