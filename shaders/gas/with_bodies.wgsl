// The gas passes that see walls, built for a grid with bodies (walls.wgsl); its twin:
// without_bodies.wgsl.
const BODIES: bool = true;
