DROP INDEX "insights_file_days_plays_idx";--> statement-breakpoint
CREATE INDEX "insights_creator_day_sources_plays_idx" ON "insights_creator_day_sources" USING btree ("creator_id","day","source","plays");--> statement-breakpoint
CREATE INDEX "insights_creator_days_figures_idx" ON "insights_creator_days" USING btree ("creator_id","day","plays","listening_ms","share_heard","completions","toy_plays","listeners","week_listeners");--> statement-breakpoint
CREATE INDEX "insights_file_day_listeners_figures_idx" ON "insights_file_day_listeners" USING btree ("file_id","day","listeners","week_listeners");--> statement-breakpoint
CREATE INDEX "insights_file_days_figures_idx" ON "insights_file_days" USING btree ("file_id","day","plays","listening_ms","share_heard","completions","toy_plays");