import { Module } from '@nestjs/common';
import { TimelineActivitiesController } from './timeline-activities.controller';

@Module({ controllers: [TimelineActivitiesController] })
export class TimelineActivitiesModule {}
