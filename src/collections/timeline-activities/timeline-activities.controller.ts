import { createCrudController } from '../../core/rest/crud-controller.factory';
import { timelineActivities } from './timeline-activity.entity';

export class TimelineActivitiesController extends createCrudController(timelineActivities) {}
