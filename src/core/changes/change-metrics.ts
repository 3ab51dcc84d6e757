import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { ChangeFeed } from './change-feed.service';
import { ChangeStreams } from './change-streams';

/**
 * The change-feed gauges of API.md section 20: the head position (read on the refresh timer, without
 * running the sequencer: that would write positions no reader asked for, a cost under writes),
 * the open streams of this instance and how far the furthest-behind one is from the head (read
 * from memory at each scrape).
 */
@Injectable()
export class ChangeMetrics implements OnModuleInit {
  private head = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly feed: ChangeFeed,
    private readonly streams: ChangeStreams,
  ) {}

  onModuleInit(): void {
    if (this.config.metrics.port === 0) return;
    const head = this.metrics.gauge('crm_change_feed_head_position');
    const open = this.metrics.gauge('crm_change_streams_open');
    const lag = this.metrics.gauge('crm_change_stream_max_lag_changes');
    this.metrics.onRefresh('change feed head', async () => {
      this.head = await this.feed.sequencedHead();
      head.set({}, this.head);
    });
    this.metrics.onScrape(() => {
      const { count, slowest } = this.streams.open;
      open.set({}, count);
      lag.set({}, slowest === undefined ? 0 : Math.max(0, this.head - slowest));
    });
  }
}
