// eddy-fluid in React: a canvas, started after it mounts and destroyed when it unmounts.
import { useEffect, useRef } from "react";
import { create } from "eddy-fluid";

export function Fluid({ style, ...options }) {
  const canvas = useRef(null);
  useEffect(() => {
    let fluid = null, gone = false;
    create(canvas.current, options).then((f) => (gone ? f.destroy() : (fluid = f)), console.error);
    return () => { gone = true; fluid?.destroy(); };
  }, []);
  return <canvas ref={canvas} style={{ display: "block", width: "100%", height: 400, ...style }} />;
}
