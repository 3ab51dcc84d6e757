import { Module } from '@nestjs/common';
import { ChangeFeed } from './change-feed.service';
import { ChangeFeedSubscriber } from './change-feed.subscriber';
import { ChangeMetrics } from './change-metrics';
import { ChangeRetention } from './change-retention';
import { ChangeSignal } from './change-signal';
import { ChangeStreams } from './change-streams';

/**
 * The change feed (API.md section 15): its entries written with every write's events, positions in
 * commit order, retention, and the live streams of this instance. The routes are in
 * rest/changes.controller.ts; exports read `ChangeFeed.tokenOfSnapshot`.
 */
@Module({
  providers: [ChangeFeed, ChangeFeedSubscriber, ChangeMetrics, ChangeRetention, ChangeSignal, ChangeStreams],
  exports: [ChangeFeed, ChangeStreams, ChangeRetention],
})
export class ChangesModule {}
