// The custom metadata of an ONNX model (ModelProto field 14, metadata_props): onnxruntime-node does
// not expose it, and Ultralytics exports keep the class names there ("names": "{0: 'person', …}").
// A minimal protobuf walk over the top-level fields; everything else is skipped by length.

function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let pos = at;
  for (;;) {
    if (pos >= bytes.length) throw new Error('the model file is truncated');
    const byte = bytes[pos++] as number;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, pos];
    shift += 7;
    if (shift > 63) throw new Error('the model file has a malformed number');
  }
}

/** Length-delimited fields of one message, as [field number, bytes]. */
function fields(bytes: Uint8Array): [number, Uint8Array][] {
  const out: [number, Uint8Array][] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const [key, next] = readVarint(bytes, pos);
    pos = next;
    const wire = key % 8;
    const field = Math.floor(key / 8);
    if (wire === 0) pos = readVarint(bytes, pos)[1];
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire === 2) {
      const [length, start] = readVarint(bytes, pos);
      out.push([field, bytes.subarray(start, start + length)]);
      pos = start + length;
    } else throw new Error(`the model file has an unknown protobuf wire type ${wire}`);
  }
  return out;
}

export function onnxMetadata(model: Uint8Array): Map<string, string> {
  const decoder = new TextDecoder();
  const metadata = new Map<string, string>();
  for (const [field, entry] of fields(model)) {
    if (field !== 14) continue;
    let k = '';
    let v = '';
    for (const [inner, data] of fields(entry)) {
      if (inner === 1) k = decoder.decode(data);
      if (inner === 2) v = decoder.decode(data);
    }
    metadata.set(k, v);
  }
  return metadata;
}

/** Class names from an Ultralytics "names" entry: "{0: 'person', 1: 'bicycle'}". */
export function classNames(names: string | undefined): string[] {
  const out: string[] = [];
  for (const match of (names ?? '').matchAll(/(\d+)\s*:\s*(['"])(.*?)\2/g)) {
    out[Number(match[1])] = match[3] ?? '';
  }
  return out;
}
