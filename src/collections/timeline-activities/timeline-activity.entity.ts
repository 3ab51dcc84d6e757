import { withoutHiddenProperties } from '../../core/access/event-properties';
import { RecordEntity } from '../../core/database/record-entity';
import { getFieldDefinitions } from '../../core/fields/field-definition';
import { defineCollection } from '../../core/model/collection-definition';
import { TimelineActivity, TimelineActivityForResponse, TimelineActivityForUpdate } from './timeline-activity.dto';

@RecordEntity({ table: 'timelineActivity', fields: TimelineActivity })
export class TimelineActivityEntity {}

/** The join columns naming the record whose timeline a row is on (not the member who acted). */
const TIMELINE_OF = getFieldDefinitions(TimelineActivity)
  .filter((f) => f.relation && f.relation.target !== 'workspaceMembers')
  .map((f) => ({ column: f.name, target: f.relation!.target }));

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
  hooks: {
    // a row is on the timeline of one record (its join column): a key sees the rows of the records
    // of collections it can read, without the fields it may not read (API.md section 14)
    visibleRows: (readable) => {
      const open = TIMELINE_OF.filter((f) => readable.some((c) => c.plural === f.target)).map(
        (f) => `${f.column}[is]:NOT_NULL`,
      );
      return open.length ? `or(${open.join(',')})` : 'id[is]:NULL';
    },
    redact: (row, access) => {
      const singular = typeof row.name === 'string' ? row.name.split('.')[0] : '';
      const grant = access.grantOfObject(singular);
      return grant && 'properties' in row
        ? { ...row, properties: withoutHiddenProperties(row.properties, grant) }
        : row;
    },
  },
});
