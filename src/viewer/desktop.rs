//! What the desktop viewer reads and writes: states loaded from a path or a dropped file and
//! saved as `.npz`, screenshots of the simulation or the whole window, GIF and video recording. Every
//! write is checked first and atomic (`crate::files`). A browser has no file system and cannot
//! wait for a readback; `web.rs` stands in there.

use super::{Error, Every, Live, Recording};
use crate::gpu;
use crate::model::AnyState;
use crate::record::{Format, Recorder};
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

    /// Starts a recording in `format` under the next free name `eddy-<model>[-N].gif` (or
    /// `.mp4`), or ends those of that format being made.
    pub(super) fn toggle_recording(&mut self, format: Format) -> Result<(), Error> {
        let (ending, going): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.recordings).into_iter().partition(|r| r.recorder.format() == format);
        self.recordings = going;
        match ending.is_empty() {
            false => ending.into_iter().try_for_each(|r| self.finish_recording(r)),
            true => {
                let path = next_free(&format!("eddy-{}", self.session.current()), format.extension());
                let every = Every::Frames(self.controls.record_every as u64);
                let c = &self.controls;
                let (frames, scale, fps) = (c.record_frames, c.record_scale, c.record_fps);
                self.start_recording(&path, frames, every, scale, fps)
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

    /// Starts recording `path` (its format by its extension) at `fps` frames a second (a GIF's
    /// at most 50), a frame `every` steps or displayed frames, at most `cap` frames (at most the
    /// format's), `scale` pixels per cell; beside any others being made, except one into the
    /// same file, which is finished first.
    pub(super) fn start_recording(
        &mut self,
        path: &Path,
        cap: u32,
        every: Every,
        scale: u32,
        fps: f64,
    ) -> Result<(), Error> {
        if let Some(i) = self.recordings.iter().position(|r| r.recorder.path() == path) {
            let r = self.recordings.remove(i);
            self.finish_recording(r)?;
        }
        let grid = self.session.model_ref().size();
        let format = Format::of(path)?;
        let fps = fps.clamp(format.fps_range().0, format.fps_range().1);
        Format::check(path, fps, (grid.0 * scale, grid.1 * scale))?;
        let target = FrameTarget::new(&self.gpu.device, grid, scale)?;
        let recorder = Recorder::new(path, fps)?;
        let next = match every {
            Every::Steps(_) => self.session.steps(),
            Every::Frames(_) => self.frames,
        };
        let cap = cap.clamp(1, format.max_frames());
        self.recordings.push(Recording { recorder, target, scale, cap, every, next });
        let key = if format == Format::Gif { "G" } else { "M" };
        self.controls.notice = format!("recording {} ({key} stops)", path.display());
        note!("{}", self.controls.notice);
        Ok(())
    }

    /// Adds this frame to each recording with one due; each ends at its cap, or when the grid
    /// changed size (another model, a new scene).
    pub(super) fn record(&mut self) -> Result<(), Error> {
        let (w, h) = self.session.model_ref().size();
        let (device, queue) = (self.gpu.device.clone(), self.gpu.queue.clone());
        let mut ended = Vec::new();
        for (i, r) in self.recordings.iter_mut().enumerate() {
            let (now, step) = match r.every {
                Every::Steps(n) => (self.session.steps(), n),
                Every::Frames(n) => (self.frames, n),
            };
            if now < r.next {
                continue;
            }
            r.next = now + step;
            if r.target.size() != (w * r.scale, h * r.scale) {
                ended.push(i);
                continue;
            }
            let model = self.session.model();
            let image = r
                .target
                .render(&device, &queue, |encoder, view, size| model.draw(encoder, view, FrameTarget::FORMAT, size))?;
            r.recorder.add(image)?;
            if r.recorder.frames() >= r.cap {
                ended.push(i);
            }
        }
        for i in ended.into_iter().rev() {
            let r = self.recordings.remove(i);
            self.finish_recording(r)?;
        }
        Ok(())
    }

    pub(super) fn finish_recording(&mut self, r: Recording) -> Result<(), Error> {
        let path = r.recorder.path().to_path_buf();
        let n = r.recorder.finish()?;
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
