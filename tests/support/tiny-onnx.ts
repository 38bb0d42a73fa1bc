// A tiny YOLO-shaped ONNX model written byte by byte (protobuf wire format), so the ONNX detector's
// tests need no download and know its output exactly: the graph ignores the image and returns the
// given raw output [1, 4 + classes, anchors] (YOLOv8 layout: cx, cy, w, h in input pixels, then one
// score per class), with the class names in the metadata as Ultralytics writes them.

function varint(value: number): number[] {
  const bytes: number[] = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v > 0n);
  return bytes;
}

const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, value: number) => [...key(field, 0), ...varint(value)];
const bytes = (field: number, data: Uint8Array | number[]) => [
  ...key(field, 2),
  ...varint(data.length),
  ...data,
];
const text = (field: number, value: string) => bytes(field, [...new TextEncoder().encode(value)]);

const FLOAT = 1;

function valueInfo(name: string, dims: number[]): number[] {
  const shape = dims.flatMap((d) => bytes(1, int(1, d)));
  const tensorType = [...int(1, FLOAT), ...bytes(2, shape)];
  return [...text(1, name), ...bytes(2, bytes(1, tensorType))];
}

export interface TinyModel {
  inputSize: number;
  /** [4 + classes][anchors], row-major as the output tensor holds it. */
  output: number[][];
  names: string[];
  version?: string;
}

export function tinyYoloModel(model: TinyModel): Uint8Array {
  const channels = model.output.length;
  const anchors = model.output[0]?.length ?? 0;
  const raw = new Float32Array(model.output.flat());
  const tensor = [
    ...int(1, 1),
    ...int(1, channels),
    ...int(1, anchors),
    ...int(2, FLOAT),
    ...text(8, 'raw_output'),
    ...bytes(9, new Uint8Array(raw.buffer)),
  ];
  const node = [
    ...text(1, 'raw_output'),
    ...text(2, 'output0'),
    ...text(3, 'id'),
    ...text(4, 'Identity'),
  ];
  const graph = [
    ...bytes(1, node),
    ...text(2, 'tiny-yolo'),
    ...bytes(5, tensor),
    ...bytes(11, valueInfo('images', [1, 3, model.inputSize, model.inputSize])),
    ...bytes(12, valueInfo('output0', [1, channels, anchors])),
  ];
  const names = `{${model.names.map((name, i) => `${i}: '${name}'`).join(', ')}}`;
  const metadata = [['names', names], ...(model.version ? [['version', model.version]] : [])];
  return new Uint8Array([
    ...int(1, 8),
    ...text(2, 'line-clearance tests'),
    ...bytes(7, graph),
    ...bytes(8, [...text(1, ''), ...int(2, 13)]),
    ...metadata.flatMap(([k, v]) => bytes(14, [...text(1, k ?? ''), ...text(2, v ?? '')])),
  ]);
}
