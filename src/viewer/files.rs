//! What the desktop viewer reads and writes: states loaded from a path or a dropped file and
//! saved as `.npz`, screenshots of the simulation or the whole window, GIF recording. Every
//! write is checked first and atomic (`crate::files`). A browser has no file system and cannot
//! wait for a readback; `web.rs` stands in there.

use super::{Error, Every, Live, Recording};
use crate::gpu;
use crate::model::AnyState;
use crate::record::GifRecorder;
use crate::render::FrameTarget;
use crate::scene::SceneSource;
use std::path::{Path, PathBuf};

impl Live {
    /// The browser build's file picker; on the desktop files are dropped or named.
    pub(super) fn pick(&mut self) -> Result<(), Error> {
        Err("the file picker is the browser build's: drop a file on the window or type its path".into())
    }

    /// A screenshot of the simulation under the next free name `eddy-<model>[-N].png`.
    pub(super) fn screenshot_now(&mut self) -> Result<(), Error> {
        let path = next_free(&format!("eddy-{}", self.session.current()), "png");
        self.screenshot(&path, self.controls.screenshot_scale)
    }

    /// Starts a GIF under the next free name `eddy-<model>[-N].gif`, or ends the one recording.
    pub(super) fn toggle_gif(&mut self) -> Result<(), Error> {
        match self.recording.take() {
            Some(r) => self.finish_gif(r),
            None => {
                let path = next_free(&format!("eddy-{}", self.session.current()), "gif");
                let every = Every::Frames(self.controls.gif_every as u64);
                self.start_gif(&path, self.controls.gif_frames, every, self.controls.gif_scale)
            }
        }
    }

    /// Loads a dropped or named file: a `.npz` state (of whichever model its arrays say) or a
    /// PNG scene for the current model. On error the running simulation is kept and the panel
    /// says why.
    pub(super) fn load(&mut self, path: &Path) {
        let is_npz = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("npz"));
        let result = if is_npz {
            let limits = crate::model::memory::read_limits(Some(self.gpu.device.limits().max_texture_dimension_2d));
            self.take_state(&path.display(), AnyState::load_npz_within(path, None, limits), |kind| {
                AnyState::read_parameters(path, kind)
            })
        } else {
            let size = self.controls.size;
            self.session
                .restart(&SceneSource::Png(path.to_path_buf()), size)
                .map(|_| format!("loaded the scene {}", path.display()))
                .map_err(Into::into)
        };
        self.say_loaded(result);
    }

    pub(super) fn save(&mut self, path: &Path) -> Result<(), Error> {
        crate::files::check_writable_file(path)?;
        self.session.model().save_npz(path)?;
        self.controls.notice = format!("saved {}", path.display());
        note!("{}", self.controls.notice);
        Ok(())
    }

    /// Saves what the window shows, panel included: drawn again into an offscreen texture of the
    /// surface's format (a surface need not be readable), read back as RGBA.
    pub(super) fn window_shot(
        &mut self,
        path: &Path,
        jobs: &[egui::ClippedPrimitive],
        screen: &egui_wgpu::ScreenDescriptor,
    ) -> Result<(), Error> {
        let (w, h) = (self.config.width, self.config.height);
        let format = self.config.format;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let texture = gpu::texture_2d(&self.gpu.device, "window shot", (w, h), format, usage);
        self.draw(&texture.create_view(&Default::default()), format, jobs, screen)?;
        let mut bytes = gpu::read_texture(&self.gpu.device, &self.gpu.queue, &texture, 4)?;
        if matches!(format, wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb) {
            bytes.chunks_exact_mut(4).for_each(|px| px.swap(0, 2));
        }
        let image = image::RgbaImage::from_raw(w, h, bytes).ok_or("the window's pixels did not read back whole")?;
        write_png(path, &image)?;
        note!("screenshot: {}", path.display());
        Ok(())
    }

    /// Saves the simulation view (no panel) at `scale` pixels per cell.
    pub(super) fn screenshot(&mut self, path: &Path, scale: u32) -> Result<(), Error> {
        let image = self.render_sim(scale)?;
        write_png(path, &image)?;
        self.controls.notice = format!("screenshot {}", path.display());
        note!("{}", self.controls.notice);
        Ok(())
    }

    pub(super) fn render_sim(&mut self, scale: u32) -> Result<image::RgbaImage, Error> {
        let grid = self.session.model_ref().size();
        let target = FrameTarget::new(&self.gpu.device, grid, scale)?;
        let (device, queue) = (self.gpu.device.clone(), self.gpu.queue.clone());
        let model = self.session.model();
        Ok(target
            .render(&device, &queue, |encoder, view, size| model.draw(encoder, view, FrameTarget::FORMAT, size))?)
    }

    pub(super) fn start_gif(&mut self, path: &Path, cap: u32, every: Every, scale: u32) -> Result<(), Error> {
        if let Some(r) = self.recording.take() {
            self.finish_gif(r)?;
        }
        crate::files::check_writable_file(path)?;
        let grid = self.session.model_ref().size();
        let target = FrameTarget::new(&self.gpu.device, grid, scale)?;
        let delay = match every {
            Every::Frames(n) => (n as u32 * 1000 / 30).max(20), // about the window's pace at 30 fps
            Every::Steps(_) => 40,
        };
        let gif = GifRecorder::new(path, delay)?;
        let next = match every {
            Every::Steps(_) => self.session.steps(),
            Every::Frames(_) => self.frames,
        };
        self.recording =
            Some(Recording { gif, target, scale, cap: cap.clamp(1, crate::record::MAX_FRAMES), every, next });
        self.controls.notice = format!("recording {} (G stops)", path.display());
        note!("{}", self.controls.notice);
        Ok(())
    }

    /// Adds this frame to the GIF when one is due; stops at the cap.
    pub(super) fn record(&mut self) -> Result<(), Error> {
        let Some(r) = &mut self.recording else { return Ok(()) };
        let (now, step) = match r.every {
            Every::Steps(n) => (self.session.steps(), n),
            Every::Frames(n) => (self.frames, n),
        };
        if now < r.next {
            return Ok(());
        }
        r.next = now + step;
        let (w, h) = self.session.model_ref().size();
        if r.target.size() != (w * r.scale, h * r.scale) {
            // The grid changed size (another model, a new scene): the GIF ends here.
            let r = self.recording.take().expect("recording");
            return self.finish_gif(r);
        }
        let (device, queue) = (self.gpu.device.clone(), self.gpu.queue.clone());
        let model = self.session.model();
        let image = r
            .target
            .render(&device, &queue, |encoder, view, size| model.draw(encoder, view, FrameTarget::FORMAT, size))?;
        r.gif.add(image)?;
        if r.gif.frames() >= r.cap {
            let r = self.recording.take().expect("recording");
            self.finish_gif(r)?;
        }
        Ok(())
    }

    pub(super) fn finish_gif(&mut self, r: Recording) -> Result<(), Error> {
        let path = r.gif.path().to_path_buf();
        let n = r.gif.finish()?;
        self.controls.notice = format!("saved {} ({n} frames)", path.display());
        note!("{}", self.controls.notice);
        Ok(())
    }
}

/// `stem.ext`, or `stem-2.ext`, `stem-3.ext`, ... : the first that does not exist.
pub(super) fn next_free(stem: &str, ext: &str) -> PathBuf {
    let first = PathBuf::from(format!("{stem}.{ext}"));
    if !first.exists() {
        return first;
    }
    (2..).map(|i| PathBuf::from(format!("{stem}-{i}.{ext}"))).find(|p| !p.exists()).expect("an unused name")
}

fn write_png(path: &Path, image: &image::RgbaImage) -> Result<(), Error> {
    crate::files::write_atomically(path, |w| {
        image.write_to(w, image::ImageFormat::Png).map_err(std::io::Error::other)
    })?;
    Ok(())
}
