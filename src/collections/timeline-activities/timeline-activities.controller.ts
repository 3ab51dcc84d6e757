import { createCrudController } from '../../core/crud/crud-controller.factory';
import { timelineActivities } from './timeline-activity.entity';

export class TimelineActivitiesController extends createCrudController(timelineActivities) {}
