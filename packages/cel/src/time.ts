// RFC 3339 date-times and Go durations as CEL timestamps and durations (google.protobuf.Timestamp / Duration), read
// with apimachinery's Go-compatible parsers.
import { create } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema, type Duration, type Timestamp } from '@bufbuild/protobuf/wkt';
import { parseDuration as goDuration, parseRFC3339 } from '@kapi/apimachinery';

/** An RFC 3339 date-time (`format: date-time`) or full date (`format: date`) as a Timestamp; undefined if invalid. */
export function parseTimestamp(text: string, dateOnly = false): Timestamp | undefined {
  try {
    const t = parseRFC3339(dateOnly ? `${text}T00:00:00Z` : text);
    return create(TimestampSchema, { seconds: BigInt(t.seconds), nanos: t.nanos });
  } catch {
    return undefined;
  }
}

/** A Go duration (`1h30m`, `-1.5s`, `300ms`) as a Duration, as time.ParseDuration reads it; undefined if invalid. */
export function parseDuration(text: string): Duration | undefined {
  try {
    const total = goDuration(text);
    return create(DurationSchema, { seconds: total / 1_000_000_000n, nanos: Number(total % 1_000_000_000n) });
  } catch {
    return undefined;
  }
}
