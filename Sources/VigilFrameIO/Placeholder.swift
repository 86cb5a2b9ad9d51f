// VigilFrameIO
