//! Animated GIFs: [`GifRecorder`] streams frames through `image`'s GIF encoder (256 colours a
//! frame, quantised by NeuQuant at speed 10).

use crate::scene::SceneError;
use image::codecs::gif::{GifEncoder, Repeat};
use std::path::{Path, PathBuf};

/// A GIF being written, frame by frame (into a temporary file beside the target, given the
/// replaced file's permissions, or `rw-r--r--`, when renamed over it).
pub struct GifRecorder {
    path: PathBuf,
    /// The encoder, writing into `partial`'s file; dropped (which writes the GIF trailer) before
    /// `partial` is renamed over the target.
    encoder: Option<GifEncoder<std::fs::File>>,
    partial: crate::files::Partial,
    frames: u32,
    delay_cs: u32,
    size: Option<(u32, u32)>,
}

pub(super) fn io(path: &Path, e: impl std::fmt::Display) -> SceneError {
    SceneError::Io { path: path.to_path_buf(), source: std::io::Error::other(e.to_string()) }
}

impl GifRecorder {
    /// Starts a GIF at `path` that loops forever at `fps` frames a second: each frame shows
    /// `100 / fps` hundredths of a second, rounded (GIF's unit), at least 2 (50 frames/s, the
    /// fastest browsers honour). 25 frames/s is a delay of 4; 30 is rounded to 3 (33.3 frames/s).
    ///
    /// # Errors
    /// [`SceneError::Io`] when no file can be created in `path`'s folder.
    pub fn new(path: &Path, fps: f64) -> Result<Self, SceneError> {
        let partial = crate::files::partial(path)?;
        let file = partial.file.try_clone().map_err(|e| io(path, e))?;
        let mut encoder = GifEncoder::new_with_speed(file, 10);
        encoder.set_repeat(Repeat::Infinite).map_err(|e| io(path, e))?;
        Ok(GifRecorder {
            path: path.to_path_buf(),
            encoder: Some(encoder),
            partial,
            frames: 0,
            delay_cs: super::gif_delay_cs(fps),
            size: None,
        })
    }

    /// Adds a frame (every frame must have the first one's size).
    ///
    /// # Errors
    /// [`SceneError::Io`] when the frame cannot be written, or its size differs from the first's.
    pub fn add(&mut self, frame: image::RgbaImage) -> Result<(), SceneError> {
        let size = frame.dimensions();
        if *self.size.get_or_insert(size) != size {
            return Err(io(&self.path, format!("a frame of {size:?} pixels after frames of {:?}", self.size)));
        }
        let delay = image::Delay::from_numer_denom_ms(self.delay_cs * 10, 1);
        let encoder = self.encoder.as_mut().expect("present until finish");
        encoder.encode_frame(image::Frame::from_parts(frame, 0, 0, delay)).map_err(|e| io(&self.path, e))?;
        self.frames += 1;
        Ok(())
    }

    /// The frame rate it plays at: 100 / its delay in hundredths of a second.
    pub fn fps(&self) -> f64 {
        100.0 / self.delay_cs as f64
    }

    /// Frames added so far.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// Where it will be written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the GIF's end and renames it over the target. Returns the frames written.
    ///
    /// # Errors
    /// [`SceneError::Io`] when no frame was added (an empty GIF is not written) or the file
    /// cannot be finished or renamed; the target is left as it was.
    pub fn finish(mut self) -> Result<u32, SceneError> {
        drop(self.encoder.take()); // writes the trailer
        if self.frames == 0 {
            return Err(io(&self.path, "no frame was recorded, so no GIF was written"));
        }
        crate::files::commit(self.partial, &self.path)?;
        Ok(self.frames)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recording decodes back with its frames, and one never finished leaves the target as it was.
    #[test]
    fn frames_round_trip_and_an_abandoned_recording_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gif");
        let mut gif = GifRecorder::new(&path, 25.0).unwrap();
        for i in 0..3u8 {
            gif.add(image::RgbaImage::from_pixel(8, 4, image::Rgba([i * 100, 0, 0, 255]))).unwrap();
        }
        assert!(gif.add(image::RgbaImage::new(4, 4)).is_err());
        assert_eq!(gif.finish().unwrap(), 3);
        let decoder = image::codecs::gif::GifDecoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let frames = image::AnimationDecoder::into_frames(decoder.unwrap()).collect_frames().unwrap();
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[2].buffer().get_pixel(1, 1)[0], 200);
        assert_eq!(frames[0].delay().numer_denom_ms(), (40, 1), "25 frames/s is 4 hundredths a frame");
        let rounded = GifRecorder::new(&dir.path().join("b.gif"), 30.0).unwrap();
        assert_eq!(rounded.fps(), 100.0 / 3.0, "30 frames/s plays as a delay of 3 hundredths");
        drop(rounded);

        std::fs::write(&path, b"keep").unwrap();
        let mut gif = GifRecorder::new(&path, 25.0).unwrap();
        gif.add(image::RgbaImage::new(2, 2)).unwrap();
        drop(gif);
        assert_eq!(std::fs::read(&path).unwrap(), b"keep");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left");
    }
}
