// seek-bzip ships no types: the one function Binlens calls, with the stream shapes it accepts.
declare module 'seek-bzip' {
  interface InputStream {
    readByte(): number;
    read(buffer: Uint8Array, offset: number, length: number): number;
    eof(): boolean;
  }
  interface OutputStream {
    writeByte(byte: number): void;
  }
  const Bunzip: { decode(input: InputStream, output: OutputStream, multistream: boolean): void };
  export default Bunzip;
}
