import { SecretBox } from '../security/secret-box';
import { CollectionMeta } from '../model/collection-meta';
import { RecordCodec } from './record-codec';

/** One RecordCodec per collection, created once. */
export class RecordCodecs {
  private readonly codecs = new Map<CollectionMeta, RecordCodec>();

  constructor(private readonly secrets: SecretBox) {}

  of(meta: CollectionMeta): RecordCodec {
    let codec = this.codecs.get(meta);
    if (!codec) {
      codec = new RecordCodec(meta, this.secrets);
      this.codecs.set(meta, codec);
    }
    return codec;
  }
}
