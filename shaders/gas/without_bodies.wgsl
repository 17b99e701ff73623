// The gas passes that see walls, built for a grid without bodies (walls.wgsl): BODIES is a
// constant, so the compiler drops the body code (llvmpipe runs both sides of every `if`, so a
// test of params.bodies would not spare it). Its twin: with_bodies.wgsl.
const BODIES: bool = false;
