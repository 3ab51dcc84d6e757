import { Module } from '@nestjs/common';
import { TimelineActivitiesController } from './timeline-activities.controller';
import { TimelineSubscriber } from './timeline.subscriber';

@Module({ controllers: [TimelineActivitiesController], providers: [TimelineSubscriber] })
export class TimelineActivitiesModule {}
