// VigilLive
