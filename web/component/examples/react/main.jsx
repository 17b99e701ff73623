// The React example's page: <Fluid model="smoke" /> in an app (bundled with esbuild: see ../README.md).
import { createRoot } from "react-dom/client";
import { Fluid } from "./Fluid.jsx";

createRoot(document.getElementById("root")).render(
  <main>
    <h1>eddy-fluid in React</h1>
    <Fluid model="smoke" colors={["#ff6b35", "#f7c59f"]} />
  </main>,
);
