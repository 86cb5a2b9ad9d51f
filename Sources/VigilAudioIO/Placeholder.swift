// VigilAudioIO
