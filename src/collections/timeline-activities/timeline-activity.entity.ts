import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { TimelineActivity, TimelineActivityForResponse, TimelineActivityForUpdate } from './timeline-activity.dto';

@RecordEntity({ table: 'timelineActivity', fields: TimelineActivity })
export class TimelineActivityEntity {}

export const timelineActivities = defineCollection({
  plural: 'timelineActivities',
  description: 'Timeline activities: the history shown on a record (events on it and its notes and tasks)',
  singular: 'timelineActivity',
  pascal: 'TimelineActivity',
  pascalPlural: 'TimelineActivities',
  entity: TimelineActivityEntity,
  create: TimelineActivity,
  update: TimelineActivityForUpdate,
  response: TimelineActivityForResponse,
  duplicateCriteria: [],
  timeline: false,
});
